/// Checks the references of the models a run plans against the models of the package: each
/// names a model that exists (recorded, or generated in the same run), in the same module, with
/// the sqlite storage; and each reference field takes the type of that model's id.
enum ReferenceCheck {
    /// What a reference needs to know of the model it names.
    struct Referable: Equatable {
        let idType: BaseType
        let storage: Storage
        let module: String
    }

    /// The models of `manifest` (not destroyed) and of `requests`, by name.
    static func models(
        _ manifest: Manifest, _ requests: [GenerateRequest]
    ) -> [String: Referable] {
        var models: [String: Referable] = [:]
        for record in manifest.models where record.destroyed != true {
            guard let id = record.fields.first(where: { $0.name == "id" }),
                let idType = BaseType(rawValue: id.type)
            else { continue }
            models[record.name] = Referable(
                idType: idType, storage: record.storage, module: record.module)
        }
        for request in requests {
            guard case .base(let idType)? = request.spec.idField?.type else { continue }
            models[request.spec.typeName] = Referable(
                idType: idType, storage: request.storage, module: request.module)
        }
        return models
    }

    /// `request` with each reference field typed as the id of the model it names, in its
    /// current spec and in its earlier versions.
    static func resolve(_ request: inout GenerateRequest, among models: [String: Referable]) throws
    {
        let (name, module) = (request.spec.typeName, request.module)
        request.spec = try resolve(request.spec, model: name, module: module, among: models)
        request.history.previous = try request.history.previous.map { version in
            var version = version
            version.spec = try resolve(version.spec, model: name, module: module, among: models)
            return version
        }
    }

    static func resolve(
        _ spec: ModelSpec, model: String, module: String, among models: [String: Referable]
    ) throws -> ModelSpec {
        var spec = spec
        for index in spec.fields.indices {
            guard let reference = spec.fields[index].reference else { continue }
            let token = SpecFormatter.token(spec.fields[index])
            guard reference.model != model else {
                throw PlanError(
                    "'\(token)': a model referring to itself (a tree) is not supported yet; keep "
                        + "the id in a plain field, for example parentID:UUID?")
            }
            guard let parent = models[reference.model] else {
                let suggestion =
                    Suggestion.closest(
                        to: reference.model, among: models.keys.sorted()
                    ).map { " Did you mean \($0)?" } ?? ""
                throw PlanError(
                    "'\(token)' refers to \(reference.model), which is not a model of this "
                        + "package.\(suggestion) Generate \(reference.model) first (with "
                        + "--storage sqlite, into the same target), then \(model)")
            }
            guard parent.module == module else {
                throw PlanError(
                    "'\(token)': \(reference.model) is in module \(parent.module), and \(model) "
                        + "in \(module); a reference joins models of one module's database: "
                        + "generate \(model) into \(parent.module) (--target \(parent.module))")
            }
            guard parent.storage == .sqlite else {
                throw PlanError(
                    "'\(token)': \(reference.model) uses --storage \(parent.storage.rawValue); a "
                        + "reference needs both models in the sqlite storage: generate "
                        + "\(reference.model) again with --storage sqlite")
            }
            let type = FieldType.base(parent.idType)
            spec.fields[index].type = spec.fields[index].type.isOptional ? .optional(type) : type
        }
        return spec
    }
}
