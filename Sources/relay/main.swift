import Foundation
import RelayCLI

internal import CMallocArena

// Before any thread starts: one malloc arena for every thread. Reading 1 MB of Markdown made
// 14,890 `mprotect`s growing and shrinking a thread's own arena, and took 12% longer
// (Docs/Performance.md, "Side by side — commit 2898241").
relay_use_one_malloc_arena()
// Before any thread starts: every thread then blocks these signals, and one listener reads them.
ProcessSignals.prepare()
exit(await RelayCommand.main(linking: []))
