import RelayKit
import RelayLanguage

extension ActionRegistry {
    /// Registers the actions (`PACKAGE.action`), entity types, content types, converters and file
    /// properties of a package served by a host process.
    public mutating func register(hosted package: HostedPackage) throws(IntentDeclarationError) {
        try register(
            actions: try package.actionDefinitions(), entities: package.entityDescriptors(), contentTypes: package.manifest.contentTypes,
            converters: package.converters(), fileProperties: package.fileProperties())
    }
}
