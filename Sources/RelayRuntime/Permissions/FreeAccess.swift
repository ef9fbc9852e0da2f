import Foundation
import RelayKit
import RelayEngine

extension AccessGate {
    /// Lets a run of the workflow at `workflowFile` read, without asking, what Docs/Security.md
    /// ("What is free") lists: the workflow's own folder (its sub-workflows and data) and the
    /// files the user named for the run (`--input-file`, an `--input` that is a path). The scratch
    /// folder is free in every run (`RunEnvironment`).
    public func allowFreely(runOf workflowFile: String, inputFiles: [String] = []) {
        allowFreely(.read, URL(fileURLWithPath: FileReference(path: workflowFile).originalPath).deletingLastPathComponent().path)
        for file in inputFiles where !file.isEmpty && !file.contains("\n") && !file.contains("\u{0}") && file.utf8.count < Int(PATH_MAX) {
            allowFreely(.read, file)
        }
    }
}
