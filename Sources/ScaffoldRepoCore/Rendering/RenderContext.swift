/// Builds the values templates read: names, type spellings and sample expressions. Templates
/// hold the text; everything computed about a model is computed here.
public enum RenderContext {
    /// The context for one model. `module` is the module the generated sources belong to, which
    /// the generated tests import.
    public static func make(
        for spec: ModelSpec, module: String, storage: Storage = .journal
    ) -> [String: TemplateValue] {
        let names = Names(typeName: spec.typeName)
        let fields = spec.fields.map { field -> TemplateValue in
            let isID = field.name == "id"
            return .object([
                "name": .text(field.name),
                "type": .text(field.type.swiftSpelling),
                "defaultArgument": .text(field.type.isOptional ? " = nil" : ""),
                "sample": .text(
                    SampleValues.expression(for: field.type, fieldName: field.name, isID: isID)),
            ])
        }
        let idType = spec.idField?.type.swiftSpelling ?? "String"
        let usesUUID = spec.fields.contains {
            $0.type == .base(.uuid) || $0.type == .optional(.base(.uuid))
        }
        // swift-format wants imports sorted, and the module's name decides where it goes.
        let imports = { (frameworks: [String]) -> TemplateValue in
            .list(
                (frameworks + ["Foundation", module]).sorted().map { .object(["name": .text($0)]) })
        }
        return [
            "supportImports": imports([]),
            "xctestImports": imports(["XCTest"]),
            "swiftTestingImports": imports(["Testing"]),
            "model": .text(names.type),
            "modelVariable": .text(names.variable),
            "modelPlural": .text(names.pluralVariable),
            "repository": .text(names.repository),
            "repositoryError": .text(names.repositoryError),
            "viewModel": .text(names.listViewModel),
            "testSupport": .text(names.testSupport),
            "storeFileName": .text(names.storeFileName),
            "snapshotFileName": .text(names.snapshotFileName),
            "journalFileName": .text(names.journalFileName),
            "lockFileName": .text(names.lockFileName),
            "journal": .flag(storage == .journal),
            "module": .text(module),
            "testModule": .text(module + "Tests"),
            "fields": .list(fields),
            "idType": .text(idType),
            // UUID is Comparable only on newer Apple systems; its string always is.
            "idSortKey": .text(idType == "UUID" ? ".uuidString" : ""),
            "usesUUID": .flag(usesUUID),
        ]
    }
}
