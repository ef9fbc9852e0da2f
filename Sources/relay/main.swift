import Foundation
import RelayCLI

internal import CMallocArena

// Before any thread starts: one malloc arena for every thread (reading 1 MB of Markdown made
// 14,890 `mprotect`s growing and shrinking a thread's own arena, and took 12% longer:
// Docs/Performance.md, "Side by side — commit 2898241"), and large blocks given back when freed.
relay_tune_malloc()
// Before any thread starts: every thread then blocks these signals, and one listener reads them.
ProcessSignals.prepare()
// Before any secret is read: no other process of this user may read Relay's memory or its
// /proc entries (its environment, where a token may be), and it leaves no core dump
// (Docs/Security.md, "Programs").
// A program or package host that detaches from its session is still Relay's, and ends with it.
ProcessSignals.sealAndAdopt()
exit(await RelayCommand.main(linking: []))
