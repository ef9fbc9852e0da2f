import RelayKit
import RelayLanguage

extension ActionRegistry {
    /// Registers the actions (`PACKAGE.action`), entity types and content types of a package
    /// served by a host process.
    public mutating func register(hosted package: HostedPackage) throws(IntentDeclarationError) {
        try register(
            actions: try package.actionDefinitions(), entities: package.entityDescriptors(), contentTypes: package.manifest.contentTypes)
    }
}
