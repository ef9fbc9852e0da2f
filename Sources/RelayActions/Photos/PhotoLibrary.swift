import Foundation
import RelayKit
import RelayEngine

/// The `photos` package: `photo` entities, the image files under the photo library folder (Docs/Actions.md).
public enum PhotoLibrary: IntentPackage {
    public static let name = "photos"
    public static let intents: [any Intent.Type] = []
    public static let entities: [any Entity.Type] = [Photo.self]

    /// The image extensions the library lists.
    static let extensions: Set<String> = ["png", "jpg", "jpeg", "gif", "heic", "heif", "webp", "tif", "tiff", "bmp"]

    /// The library folder: `--photos DIR`, else `$RELAY_PHOTOS`, else `~/Pictures` (`LibraryFolders`).
    static var folder: String { LibraryFolder.path(variable: "RELAY_PHOTOS", fallback: "~/Pictures") }
}

/// A photo: an image file under the library folder, identified by its path below the folder.
struct Photo: Entity {
    static var folder: String? { PhotoLibrary.folder }
    static let typeName = EntityTypeName("photo")
    static let properties: [EntityProperty<Photo>] = [
        .stored("name", \.name),
        .stored("dateAdded", \.dateAdded),
        .stored("modified", \.modified),
        .deferred("width") { try $0.dimensions().width },
        .deferred("height") { try $0.dimensions().height },
        .computed("format") { $0.format },
        .stored("size", \.size),
        .computed("path") { $0.file.path },
    ]
    static var defaultQuery: any EntityQuery<Photo> { PhotoQuery() }
    /// An image file in the library, or its path, is that photo.
    static var valueQueries: [EntityValueQuery<Photo>] { LibraryFolder.valueQueries(in: { PhotoLibrary.folder }, type: .image, extensions: PhotoLibrary.extensions, Photo.init) }

    let file: ScannedFile

    var id: String { file.relativePath }
    var name: String { file.name }
    var dateAdded: Date { file.added }
    var modified: Date { file.modified }
    var size: Int { Int(file.size) }
    /// `png`, `jpeg`, …: the short name of its content type.
    var format: String {
        let type = ContentType(fileExtension: file.fileExtension) ?? .image
        return type == .jpeg ? "jpeg" : (type.preferredExtension ?? file.fileExtension)
    }

    var displayRepresentation: DisplayRepresentation {
        let folder = (file.relativePath as NSString).deletingLastPathComponent
        return DisplayRepresentation(title: file.name, subtitle: folder.isEmpty ? nil : folder, image: file.reference)
    }

    /// A photo converts to its image file (Docs/Actions.md).
    var transferRepresentations: [TransferRepresentation] {
        let reference = file.reference
        return [.proxy(reference.contentType) { .file(reference) }]
    }

    /// Pixel width and height, read from the image's header.
    func dimensions() throws -> (width: Int, height: Int) {
        guard let size = ImageDimensions.read(file.reference) else {
            throw IntentError("cannot read the size of the photo '\(file.relativePath)'")
        }
        return size
    }
}

/// Reads the library folder on every query: nothing is cached or watched.
struct PhotoQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Photo] {
        let folder = PhotoLibrary.folder
        // Only what a listing of the library would give: an identifier cannot lead out of its folder.
        return ids.compactMap { id in FolderScan.file(id, in: folder, extensions: PhotoLibrary.extensions).map(Photo.init) }
    }

    func allEntities() async throws -> [Photo] {
        try FolderScan.files(in: PhotoLibrary.folder, extensions: PhotoLibrary.extensions, links: .followInside).map(Photo.init)
    }
}
