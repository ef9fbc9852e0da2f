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

    /// The image read as every image action reads it (`load`), written as `type` to the scratch folder.
    private static func convert(_ value: Value, to type: ContentType, _ context: any IntentContext) throws -> Value {
        let file = try value.fileValue()
        let (image, _) = try loadImage(file)
        let name = DocumentConverters.baseName(file) + "." + (type.preferredExtension ?? "img")
        return try DocumentConverters.scratchFile(try image.encoded(as: type), named: name, context)
    }
}
