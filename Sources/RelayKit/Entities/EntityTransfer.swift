import Foundation

extension EntityValue {
    /// Docs/Language.md, "Conversions between formats": the entity handed to something that accepts `accepted` content types — the first of
    /// its representations, in its own order, that conforms to one; else the cheapest converter
    /// chain from one of them. Bytes become a file in the run's scratch folder.
    public func handOver(accepting accepted: [ContentType], graph: ConversionGraph, context: any IntentContext) async throws -> Value {
        let representations = descriptor.transferRepresentations(of: self)
        let selection: TransferSelection
        do {
            selection = try TransferSelection.select(from: representations, accepting: accepted, graph: graph)
        } catch {
            throw IntentError("cannot hand over \(typeName) '\(title)': \(error)")
        }
        switch selection {
        case .representation(let index):
            return try await materialize(representations[index], context: context)
        case .converted(let index, let chain):
            var current = try await materialize(representations[index], context: context)
            for converter in chain { current = try await converter.convert(current, context) }
            return current
        }
    }

    /// A representation as a value: a proxy's value, or the bytes written to a scratch file named
    /// after the entity, with the content type's extension.
    private func materialize(_ representation: TransferRepresentation, context: any IntentContext) async throws -> Value {
        switch representation.export {
        case .proxy(let export):
            return try await export()
        case .data(let export):
            let data = try await export()
            let safeTitle = title.map { "/\\:\0".contains($0) ? "-" : $0 }
            let base = safeTitle.isEmpty ? typeName : String(safeTitle.prefix(80))
            let name = representation.contentType.preferredExtension.map { "\(base).\($0)" } ?? base
            let path = try context.scratchFolder.path(forNewFile: name)
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw IntentError("cannot write '\(path)': \(error.localizedDescription)")
            }
            return .file(FileReference(path: path))
        }
    }
}
