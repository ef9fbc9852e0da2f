internal import CLazyLibraries
import RelayKit

/// The C libraries opened when first used rather than at every start (Docs/Architecture.md,
/// "Libraries opened when first used"). Code that calls cairo, pango, TurboJPEG or cmark-gfm
/// opens the library first, where it makes a surface, a decoder or a parser: every other call
/// follows from one of those. A missing library is an error naming it, not a crash.
enum LazyLibraries {
    /// cairo and pango, with glib.
    static func openGraphics() throws(IntentError) { try check(relay_open_graphics()) }
    /// TurboJPEG.
    static func openJPEG() throws(IntentError) { try check(relay_open_jpeg()) }
    /// cmark-gfm and its extensions.
    static func openMarkdown() throws(IntentError) { try check(relay_open_markdown()) }

    private static func check(_ failure: UnsafePointer<CChar>?) throws(IntentError) {
        if let failure { throw IntentError(String(cString: failure)) }
    }
}
