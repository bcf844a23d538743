import PackagePlugin

/// Generates the scenario catalog from the files in Scenarios/: adding a file is all QA do.
@main
struct ScenarioCatalog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "ScenarioCatalog.swift")
        return [
            .buildCommand(
                displayName: "Cataloguing \(inputs.count) scenario files",
                executable: try context.tool(named: "scenario-catalog").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
