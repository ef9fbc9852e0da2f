import Foundation
import RelayKit

/// The one place values change form (Docs/Architecture.md, "Conversions"): the rules of
/// Docs/Language.md, "Types and conversion", an entity's representations by fidelity, text that
/// becomes an entity through its type's query, and the converter graph of every registered package.
///
/// It answers two questions, by the same rules: "can a value of this type become that, and how?"
/// (`route(from:to:)`, for the checker, `describe` and completion), and "convert this value"
/// (`convert(_:to:in:)`, for parameters, `convert`, `get-text`, `make-pdf`, `save-file`, undo and a
/// package host's convert call).
public struct Conversions: Sendable {
    public let graph: ConversionGraph
    public let entityTypes: EntityCatalog

    /// The service of a registry's converters and entity types. The registry's content types and
    /// file properties are the current `Declarations`: a check, a run and `relay undo` make them so.
    public init(graph: ConversionGraph, entityTypes: EntityCatalog) {
        self.graph = graph
        self.entityTypes = entityTypes
    }

    /// The cost of a chain: 1 for each lossless step, 100 for each lossy one, so that fewer lossy
    /// steps always win, then fewer steps (Docs/Language.md, "Conversions between formats").
    public static func cost(of chain: [Converter]) -> Int {
        chain.reduce(0) { $0 + cost(of: $1) }
    }

    public static func cost(of converter: Converter) -> Int { converter.isLossy ? 100 : 1 }

    // MARK: - What can become what

    /// Whether a value of type `from` can become what `target` wants, known before any value is at
    /// hand: always, for some values, or never (with what was tried).
    public enum Route: Sendable {
        case always
        case sometimes
        case never(String)
    }

    /// The route from `from` to `target` by the same rules `convert(_:to:in:)` follows.
    public func route(from: ValueType, to target: ConversionTarget) -> Route {
        if from == .any || from == .nothing && target.type == .nothing { return .always }
        if target.existing {
            switch from {
            case .file, .text, .url, .list: return .sometimes
            case _ where from.isEntity: return .sometimes
            default:
                return .never("only a file, a path or a file: URL names a file to act on; to make a file of a value, use save-file first")
            }
        }
        if target.type == .any || target.type == .list { return .always }
        if from.isEntity {
            // What an entity offers is known only from the entity; its own type it always is.
            if target.type.isEntity { return Coercibility.of(from, to: target.type) == .never ? never(from, target) : .sometimes }
            if target.type == .text || target.type == .dictionary { return .always }
            return .sometimes
        }
        let coercible = Coercibility.of(from, to: target.type)
        if coercible == .always, target.type != .file || target.contentTypes.isEmpty { return .always }
        if coercible != .never || target.type.isEntity && (from == .text || valueQueriesTake(from, into: target.type)) { return .sometimes }
        // A file's content type is known only from the file: any converter from a file may apply.
        let offered: [Representation] =
            from == .file
            ? graph.converters.compactMap { if case .file = $0.from { $0.from } else { nil } } : [.value(from)]
        if graph.cheapest(from: offered, to: target.wanted) != nil { return .sometimes }
        return never(from, target)
    }

    /// Whether a value query of one of the entity types takes values of type `from` (for a file,
    /// of any content type: which it is, the file will tell).
    private func valueQueriesTake(_ from: ValueType, into type: ValueType) -> Bool {
        type.entityTypeNames.contains { name in
            entityTypes.descriptor(named: name)?.valueQueries.queries.contains { query in
                switch query.from {
                case .file: from == .file
                case .value(let taken): taken == from || taken == .any
                }
            } ?? false
        }
    }

    private func never(_ from: ValueType, _ target: ConversionTarget) -> Route {
        if from.isEntity || target.type.isEntity { return .never("\(from.withArticle) is never \(target)") }
        return .never("no rule of conversion turns \(from.withArticle) into \(target), and no chain of converters leads there")
    }

    // MARK: - Converting a value

    /// `value` itself when it is already what `target` wants and `convert` would give it back as
    /// it is — text for text, a number for a number, a truth value or a date for one — known
    /// without an async call (most arguments of most steps); nil when `convert` must look.
    public static func unchanged(_ value: Value, for target: ConversionTarget) -> Value? {
        guard !target.isExplicit, target.contentTypes.isEmpty else { return nil }
        switch (value, target.type) {
        case (.text, .text), (.number, .number), (.boolean, .boolean), (.date, .date): return value
        default: return nil
        }
    }

    /// `value` as `target` wants it. Throws `ConversionError` when it cannot be; errors a converter
    /// or a package throws pass through.
    public func convert(_ value: Value, to target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        if target.wantsOneValue, case .list(let items) = value, items.count == 1 {
            return try await convert(items[0], to: target, in: context)
        }
        if target.existing { return try await existingFile(value, as: target, in: context) }
        if let item = target.item {
            // A list of a type (`[Trail]`): a list by a list's rules, then each item as the type.
            let list = try await convert(value, to: ConversionTarget(.list), in: context).asList
            let each = ConversionTarget(item, accepting: target.contentTypes)
            var converted: [Value] = []
            converted.reserveCapacity(list.count)
            // A title written several times is looked up (and asked about) once.
            var byTitle: [String: Value] = [:]
            for (index, element) in list.enumerated() {
                do {
                    if let same = Self.unchanged(element, for: each) {
                        converted.append(same)
                    } else if item.isEntity, case .text(let title) = element {
                        if let found = byTitle[title] {
                            converted.append(found)
                        } else {
                            let found = try await convert(element, to: each, in: context)
                            byTitle[title] = found
                            converted.append(found)
                        }
                    } else {
                        converted.append(try await convert(element, to: each, in: context))
                    }
                } catch let error as ConversionError {
                    throw ConversionError("item \(index + 1): \(error.message)")
                }
            }
            return .list(converted)
        }
        if case .list(let items) = value, !target.contentTypes.isEmpty, target.type == .any || target.type == .list {
            var converted: [Value] = []
            converted.reserveCapacity(items.count)
            for item in items { converted.append(try await convert(item, to: ConversionTarget(.any, accepting: target.contentTypes), in: context)) }
            return .list(converted)
        }
        if case .entity(let entity) = value {
            return try await convert(entity, to: target, in: context)
        }
        if target.type.isEntity {
            return try await entity(from: value, as: target.type, in: context)
        }
        return try await convertPlain(value, to: target, in: context)
    }

    /// A file to act on (Docs/Language.md, "Files acted on"): a file as it is, the file a path or a
    /// `file:` URL names, or an entity's own file; anything else is an error, never a file made of it.
    private func existingFile(_ value: Value, as target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        let file: FileReference
        switch value {
        case .file(let given): file = given
        case .text:
            do throws(CoercionError) {
                file = try value.fileValue(relativeTo: context.baseDirectory)
            } catch {
                throw ConversionError(error.reason ?? "found \(value.briefDescription), which names no file")
            }
        case .url(let url) where url.isFileURL: file = FileReference(path: url.path)
        case .entity(let entity):
            guard let own = try await ownFile(of: entity) else {
                throw ConversionError(
                    "\(entity.typeName) '\(entity.title)' has no file of its own to act on; to make one of it, use save-file or convert first")
            }
            file = own
        default:
            throw ConversionError(
                "\(value.briefDescription) names no file: only a file, a path or a file: URL names a file to act on; to make a file of a value, use save-file first")
        }
        let type = file.contentType
        guard target.contentTypes.isEmpty || target.contentTypes.contains(where: { type.conforms(to: $0) }) else {
            throw ConversionError("'\(file.name)' is \(type.identifier), not \(ContentType.names(target.contentTypes))")
        }
        return .file(file)
    }

    /// The file an entity is (a photo's image, a note's Markdown file): the first of its
    /// representations that hands over a file as it is, not bytes written out.
    private func ownFile(of entity: EntityValue) async throws -> FileReference? {
        for representation in entity.descriptor.transferRepresentations(of: entity) {
            switch representation.export {
            case .file(let export): return try await export()
            case .proxy(let export):
                guard representation.contentType != .plainText, representation.contentType != .richText else { continue }
                if case .file(let file) = try await export() { return file }
            case .data: continue
            }
        }
        return nil
    }

    /// A value that is not an entity: the rules of "Types and conversion" first, then the graph.
    private func convertPlain(_ value: Value, to target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        if target.type == .any || target.type == .list {
            guard !target.contentTypes.isEmpty, case .file(let file) = value else {
                return target.type == .list ? .list(value.asList) : value
            }
            return try await accepted(file, as: target, in: context)
        }
        // The text of a markup file asked for by name is the text it shows, not its source.
        if target.isExplicit, target.type == .text, case .file(let file) = value, let chain = markupReading(file.contentType) {
            return .text(try await run(chain, on: value, in: context).richTextValue().plainText)
        }
        // A format asked for by name is made of the value's content: text there is not a path.
        if target.isExplicit, target.type == .file, !target.contentTypes.isEmpty, !value.mayHoldFiles {
            guard let (_, chain) = graph.cheapest(from: Representation.offered(by: value), to: target.wanted) else {
                throw ConversionError("no conversion leads from \(value.type.withArticle) to \(target)")
            }
            return try await run(chain, on: value, in: context)
        }
        if target.type == .file, case .text(let text) = value.oneValue, let problem = FileReference.pathProblem(text) {
            throw ConversionError(problem)
        }
        let coerced: Value
        do throws(CoercionError) {
            coerced = try value.coerced(to: target.type, relativeTo: context.baseDirectory)
        } catch {
            let offered = Representation.offered(by: value)
            guard let (_, chain) = graph.cheapest(from: offered, to: target.wanted), !chain.isEmpty else {
                throw ConversionError(error.description)
            }
            return try await finish(try await run(chain, on: value, in: context), as: target, in: context)
        }
        if case .file(let file) = coerced, !target.contentTypes.isEmpty {
            return try await accepted(file, as: target, in: context)
        }
        return coerced
    }

    /// The converter that reads files of `type` as rich text, when `type` is a markup format
    /// (Markdown, RTF, HTML: a type of its own with a reader, not plain text).
    private func markupReading(_ type: ContentType) -> [Converter]? {
        for converter in graph.converters where converter.to == .value(.richText) {
            guard case .file(let from) = converter.from, from != .plainText, from != .text, type.conforms(to: from) else { continue }
            return [converter]
        }
        return nil
    }

    /// A file where some content types are wanted: itself if it is one, else what the cheapest
    /// chain makes of it.
    private func accepted(_ file: FileReference, as target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        let type = file.contentType
        if target.contentTypes.contains(where: { type.conforms(to: $0) }) { return .file(file) }
        guard let (_, chain) = graph.cheapest(from: [.file(type)], to: target.wanted) else {
            throw ConversionError(
                "'\(file.name)' is \(type.identifier), and no conversion leads from it to \(ContentType.names(target.contentTypes))")
        }
        return try await run(chain, on: .file(file), in: context)
    }

    /// The end of a chain in the target's type (a chain to a value type may end in a subtype's form).
    private func finish(_ value: Value, as target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        switch target.type {
        case .any, .list, .file: return value
        default:
            do throws(CoercionError) {
                return try value.coerced(to: target.type, relativeTo: context.baseDirectory)
            } catch {
                throw ConversionError(error.description)
            }
        }
    }

    private func run(_ chain: [Converter], on value: Value, in context: any IntentContext) async throws -> Value {
        var current = value
        for converter in chain { current = try await converter.convert(current, context) }
        return current
    }

    // MARK: - Entities

    /// An entity as `target` wants it (Docs/Language.md, "Conversions between formats"): itself
    /// for its own type; its URL and its dictionary (deferred properties fetched); its title as
    /// implicit text; for anything else, its representations by fidelity.
    private func convert(_ entity: EntityValue, to target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        switch target.type {
        case .entity, .union:
            guard target.type.entityTypeNames.contains(entity.typeName) else {
                throw ConversionError("wants \(target.type.withArticle), found \(entity.typeName) '\(entity.title)'")
            }
            return .entity(entity)
        case .nothing: return .nothing
        case .any where target.contentTypes.isEmpty: return .entity(entity)
        case .list where target.contentTypes.isEmpty: return .list([.entity(entity)])
        case .url: return .url(try await entity.url())
        case .dictionary: return .dictionary(try await entity.dictionary(includingDeferred: true))
        case .text where !target.isExplicit: return .text(entity.title)
        case .text:
            // Its first representation that is text (plain, Markdown, RTF, HTML), as the text it
            // shows; with none, its title.
            let representations = entity.descriptor.transferRepresentations(of: entity)
            guard let first = representations.first(where: { $0.contentType.conforms(to: .text) || $0.contentType == .richText }) else {
                return .text(entity.title)
            }
            let materialized = try await materialize(first, of: entity, as: ConversionTarget(.any), in: context)
            return try await convertPlain(materialized, to: target, in: context)
        default:
            let handed = try await handOver(entity, as: target, in: context)
            return target.type == .list ? .list([handed]) : handed
        }
    }

    /// The first of the entity's representations, in its own order, that is what `target` wants;
    /// else the one with the cheapest chain to it; else an error naming both sides.
    private func handOver(_ entity: EntityValue, as target: ConversionTarget, in context: any IntentContext) async throws -> Value {
        let representations = entity.descriptor.transferRepresentations(of: entity)
        let wanted = target.wanted
        // In the entity's order of fidelity, the first form that is what is wanted: one of the
        // type, or rich text, which Relay renders into PDF, RTF or HTML without loss; else the
        // cheapest chain from any of them.
        let lossless = representations.firstIndex { representation in
            guard let found = graph.cheapest(from: representation.offers, to: wanted) else { return false }
            return found.chain.isEmpty || representation.contentType == .richText && !found.chain.contains(where: \.isLossy)
        }
        let offered = representations.enumerated().flatMap { index, representation in representation.offers.map { (index, $0) } }
        guard let chosen = lossless ?? graph.cheapest(from: offered.map(\.1), to: wanted).map({ offered[$0.index].0 }) else {
            let names = representations.map(\.contentType.identifier)
            throw ConversionError(
                "cannot hand over \(entity.typeName) '\(entity.title)' as \(target): it offers "
                    + (names.isEmpty ? "no representation" : names.joined(separator: ", "))
                    + ", and no conversion leads from one of them to \(wanted.map(\.description).joined(separator: " or "))")
        }
        let materialized = try await materialize(representations[chosen], of: entity, as: target, in: context)
        let rest = target.type == .any || target.type == .list ? ConversionTarget(.any, accepting: target.contentTypes) : target
        let converted = try await convertPlain(materialized, to: rest, in: context)
        // A file made on the way from a value (rich text rendered as a PDF) is named as the
        // entity's own file would be, not by the converter.
        guard case .file(let made) = converted else { return converted }
        if case .file = materialized { return converted }
        let name = fileName(for: representations[chosen], of: entity, extension: (made.name as NSString).pathExtension)
        guard let renamed = try? context.scratchFolder.path(forNewFile: name), rename(made.path, renamed) == 0 else { return converted }
        return .file(FileReference(path: renamed))
    }

    /// The name of an entity's file in a representation: its suggested name, else its title, else
    /// its type's; with `extension`.
    private func fileName(for representation: TransferRepresentation, of entity: EntityValue, extension fileExtension: String?) -> String {
        let title = representation.suggestedFileName ?? entity.title
        let safeTitle = title.map { "/\\:\0".contains($0) ? "-" : $0 }
        let base = safeTitle.isEmpty ? entity.typeName : String(safeTitle.prefix(80))
        return fileExtension.map { $0.isEmpty ? base : "\(base).\($0)" } ?? base
    }

    /// A representation as a value: a proxy's value, or the bytes written to a scratch file named
    /// after the entity, with the content type's extension. A proxy's text where a file is wanted
    /// is written to a file too, never read as a path.
    private func materialize(
        _ representation: TransferRepresentation, of entity: EntityValue, as target: ConversionTarget, in context: any IntentContext
    ) async throws -> Value {
        let data: Data
        switch representation.export {
        case .proxy(let export):
            let value = try await export()
            guard target.type == .file, case .text(let text) = value else { return value }
            data = Data(text.utf8)
        case .data(let export):
            data = try await export()
        case .file(let export):
            return .file(try await export())
        }
        let path = try context.scratchFolder.path(forNewFile: fileName(for: representation, of: entity, extension: representation.contentType.preferredExtension))
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConversionError("cannot write '\(path)': \(error.localizedDescription)")
        }
        return .file(FileReference(path: path))
    }

    /// Docs/Language.md, "Types and conversion", text → entity: the type's query finds it by title,
    /// an exact title first, then a single partial match; none or several is an error listing the
    /// candidates. For a union the member types are asked in order: the first with one exact title
    /// wins, else the first with a single partial match.
    public func entity(from value: Value, as type: ValueType, in context: any IntentContext) async throws -> Value {
        switch value {
        case .entity(let entity) where type.entityTypeNames.contains(entity.typeName): return value
        case .list(let items) where items.count == 1: return try await self.entity(from: items[0], as: type, in: context)
        default: break
        }
        // A value the type's value queries take (a file of its format, a path) is that entity.
        let offered = Representation.offered(by: value)
        for typeName in type.entityTypeNames {
            guard let descriptor = entityTypes.descriptor(named: typeName) else { continue }
            let queries = descriptor.valueQueries.queries.filter { query in offered.contains(where: { $0.satisfies(query.from) }) }
            // A text that names an entity (a path in a library) finds it there, as a title would:
            // with the library's grant. A file given is the caller's already, and read as such.
            let isFile = if case .file = value { true } else { false }
            if !queries.isEmpty, !isFile { try await context.authorizeFinding(descriptor) }
            for query in queries {
                if let made = try await query.entity(value, descriptor, context) { return .entity(made) }
            }
        }
        switch value {
        case .entity, .list, .nothing, .dictionary, .file:
            throw ConversionError("wants \(type.withArticle), found \(value.briefDescription)")
        default: break
        }
        let title = value.textValue
        // `relay://note/ID`: the entity of that type with that identifier, as an assistant names
        // a resource (Docs/Assistants.md, "Entities").
        if let (typeName, id) = EntityResourceName.parse(title) {
            guard let descriptor = entityTypes.descriptor(named: typeName), type.entityTypeNames.contains(descriptor.name.singular) else {
                throw ConversionError("wants \(type.withArticle), found '\(title)', which names a \(typeName)")
            }
            try await context.authorizeFinding(descriptor)
            guard let found = try await descriptor.entities(for: [id]).first else {
                throw ConversionError("there is no \(descriptor.name.singular) '\(id)' (\(title))")
            }
            return .entity(found)
        }
        var candidatesByType: [(descriptor: EntityDescriptor, candidates: [EntityValue])] = []
        for typeName in type.entityTypeNames {
            guard let descriptor = entityTypes.descriptor(named: typeName) else {
                throw ConversionError("the entity type '\(typeName)' is not loaded")
            }
            try await context.authorizeFinding(descriptor)
            let candidates = try await descriptor.entities(matchingTitle: title)
            let exact = candidates.filter { $0.title.caseInsensitiveCompare(title) == .orderedSame }
            if exact.count == 1 { return .entity(exact[0]) }
            // The one titled exactly so, letter for letter, when others differ only in case ('STRASSE', 'Straße').
            let same = exact.filter { $0.title == title }
            if same.count == 1 { return .entity(same[0]) }
            candidatesByType.append((descriptor, exact.isEmpty ? candidates : exact))
        }
        if let single = candidatesByType.first(where: { $0.candidates.count == 1 }) {
            return .entity(single.candidates[0])
        }
        // No title has it: an identifier (`shopping.md`), as an assistant may give one.
        if candidatesByType.allSatisfy(\.candidates.isEmpty) {
            for (descriptor, _) in candidatesByType {
                if let found = try await descriptor.entities(for: [title]).first(where: { $0.id == title }) { return .entity(found) }
            }
        }
        // Several match: a person is asked which, on a terminal or by `--answer` (App Intents'
        // requestDisambiguation); with neither, the step fails listing them.
        let found = candidatesByType.flatMap(\.candidates)
        let asking = (2...Limits.choiceOptions).contains(found.count)
        let labels = asking ? Disambiguation.labels(found.map { ($0.title, $0.display.subtitle, $0.id) }) : found.map(\.title)
        let unresolved = Self.unresolvedTitleMessage(title, candidatesByType, labels: labels)
        if asking {
            // A question about one value: a step's `as:` name does not answer it (a list may ask several).
            let request = ChoiceRequest(prompt: "Which is '\(title)'?", options: labels, unanswered: unresolved, answeredByStep: false)
            let picked = try await context.choose(request)
            if let index = picked.first, found.indices.contains(index) { return .entity(found[index]) }
        }
        throw ConversionError(found.isEmpty ? unresolved : unresolved + "; give a title that names one")
    }

    /// `2 trails match 'Ridge': …`, each by `labels` (what an answer names it by); or that none does.
    private static func unresolvedTitleMessage(
        _ title: String, _ candidatesByType: [(descriptor: EntityDescriptor, candidates: [EntityValue])], labels: [String]
    ) -> String {
        let found = candidatesByType.flatMap(\.candidates)
        guard !found.isEmpty else {
            let types = candidatesByType.map(\.descriptor.name.singular).joined(separator: " or ")
            return "no \(types) is titled '\(title)' or has it in its title"
        }
        let isUnion = candidatesByType.count > 1
        let listed = zip(found, labels).prefix(10).map { entity, label in isUnion ? "\(entity.typeName) '\(label)'" : "'\(label)'" }
            .joined(separator: ", ")
        let what = isUnion ? "entities" : candidatesByType[0].descriptor.name.plural
        return "\(found.count) \(what) match '\(title)': \(listed)\(found.count > 10 ? ", …" : "")"
    }
}

/// A value that cannot become what was asked for.
public struct ConversionError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension TransferRepresentation {
    /// What the representation offers the converter graph: a file of its content type; a proxy of
    /// plain text is text itself too.
    var offers: [Representation] {
        if case .proxy = export, contentType == .plainText { return [.file(contentType), .value(.text)] }
        if case .proxy = export, contentType == .richText { return [.value(.richText)] }
        return [.file(contentType)]
    }
}
