/// Checks a `where` and `sort` against the properties of what is filtered, so that a property that
/// does not exist, or a comparator that does not fit a property's type, is found before running
/// (Docs/Language.md, "Entities"). The checker runs it on literal clauses; `find` runs it again on computed ones.
public struct FilterValidation: Sendable {
    /// What the filtered things are called in messages: `a photo`, `a file`.
    public let subject: String
    /// The properties that may be named, with their types.
    public let properties: [(name: String, type: ValueType)]

    public init(subject: String, properties: [(name: String, type: ValueType)]) {
        self.subject = subject
        self.properties = properties
    }

    /// The validation for an entity type's `id`, `title`, `subtitle` and declared properties.
    public init(entityType descriptor: EntityDescriptor) {
        let name = descriptor.name.singular
        self.init(
            subject: "\(Naming.indefiniteArticle(for: name)) \(name)",
            properties: descriptor.filterablePropertyNames.compactMap { property in
                descriptor.propertyType(property).map { (property, $0) }
            })
    }

    /// The validation for files (Docs/Language.md, "Changing files, and undo"): the common properties, image sizes, and the extra
    /// properties packages read (such as a PDF's `pages`), whose type is not known here.
    public static var files: FilterValidation {
        let common: [(name: String, type: ValueType)] = [
            ("name", .text), ("path", .text), ("extension", .text), ("type", .text), ("size", .number),
            ("created", .date), ("modified", .date), ("width", .number), ("height", .number),
        ]
        return FilterValidation(subject: "a file", properties: common + FilePropertyReaders.allNames.map { ($0, .any) })
    }

    /// Every problem with `clauses` and `sort`, each naming the property it concerns.
    public func problems(where clauses: ValueDictionary, sort: Value?) -> [FilterError] {
        var problems: [FilterError] = []
        let names = properties.map(\.name)
        for (property, specification) in clauses {
            guard let type = properties.first(where: { $0.name == property })?.type else {
                problems.append(unknown(property, names: names))
                continue
            }
            let conditions: [FilterCondition]
            do {
                conditions = try FilterCondition.parse(property: property, specification)
            } catch {
                problems.append(error)
                continue
            }
            let allowed = Comparator.allowed(for: type)
            for condition in conditions where !allowed.contains(condition.comparator) {
                problems.append(
                    FilterError(
                        "'\(condition.comparator.name)' does not apply to '\(property)', \(type.withArticle); use \(allowed.map(\.name).joined(separator: ", "))",
                        property: property))
            }
        }
        if let sort {
            do {
                for key in try SortKey.parse(sort) where !names.contains(key.property) {
                    problems.append(unknown(key.property, names: names))
                }
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    private func unknown(_ property: String, names: [String]) -> FilterError {
        FilterError(
            "\(subject) has no property '\(property)'\(Suggestions.didYouMean(property, in: names))", property: property,
            note: "\(subject) has \(names.joined(separator: ", "))")
    }
}
