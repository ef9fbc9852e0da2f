import RelayKit

/// Image format conversions for the converter graph; results go to the run's scratch folder.
enum ImageConverters {
    static let all: [Converter] = [
        Converter(from: .file(.png), to: .file(.jpeg), lossy: true) { value, context in
            try convert(value, to: .jpeg, context)
        },
        Converter(from: .file(.jpeg), to: .file(.png), lossy: false) { value, context in
            try convert(value, to: .png, context)
        },
    ]

    private static func convert(_ value: Value, to type: ContentType, _ context: any IntentContext) throws -> Value {
        let file = try value.fileValue()
        let image = try RasterImage.decode(try file.contents(), type: file.contentType, name: file.name)
        let name = DocumentConverters.baseName(file) + "." + (type.preferredExtension ?? "img")
        return try DocumentConverters.scratchFile(try image.encoded(as: type), named: name, context)
    }
}
