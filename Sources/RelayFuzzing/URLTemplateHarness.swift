import Foundation
import RelayKit

/// A package's URL template (first line) and the values put into it (the lines after): whatever
/// the values, the URL has the host and the number of path segments and query items that plain
/// values give it.
enum URLTemplateHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, let template = try? URLTemplate(first) else { return nil }
        let names = template.placeholders
        let given = Array(lines.dropFirst())
        let values = Dictionary(names.enumerated().map { ($1, given.indices.contains($0) ? given[$0] : "v") }, uniquingKeysWith: { a, _ in a })
        guard let plain = try? template.url({ _ in .text("v") }) else { return nil }
        guard let url = try? template.url({ values[$0].map(Value.text) }) else { return nil }
        // A placeholder in the host may change it: that is the template's choice, not the value's.
        let authority = first.components(separatedBy: "://").dropFirst().first?.prefix { !"/?#".contains($0) } ?? ""
        guard !authority.contains("{"), let host = plain.host else { return nil }
        if url.host != host { return "the values \(given) changed the host \(host) to \(url.host ?? "none"): \(url.absoluteString)" }
        if url.pathComponents.count != plain.pathComponents.count {
            return "the values \(given) changed the path's segments from \(plain.pathComponents.count) to \(url.pathComponents.count): \(url.absoluteString)"
        }
        let items = { (url: URL) in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.count ?? 0 }
        if items(url) != items(plain) {
            return "the values \(given) changed the query's items from \(items(plain)) to \(items(url)): \(url.absoluteString)"
        }
        return nil
    }
}
