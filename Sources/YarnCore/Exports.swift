// YarnCore is the one module an app imports: it re-exports the model (YarnModel) and the
// store (YarnStore) it is built on.
@_exported import YarnModel
@_exported import YarnStore
