public import MVCModel
public import MVCStore
public import MVCTracing

/// The list of attractions: the list presenter, made for attractions.
public typealias AttractionListPresenter = ElementListPresenter<Attraction>
/// The list of attractions' decisions, as a value.
public typealias AttractionListCore = ElementListCore<Attraction>
/// What the list of attractions shows.
public typealias AttractionListViewState = ElementListViewState<Attraction>
/// An attraction's editor.
public typealias AttractionDetailPresenter = ElementEditorPresenter<Attraction>
/// An attraction editor's decisions, as a value.
public typealias AttractionEditorCore = ElementEditorCore<Attraction>
/// What an attraction's editor shows.
public typealias AttractionDetailViewState = ElementEditorViewState

extension ElementListPresenter where Element == Attraction {
    /// Creates a presenter for `store`, whose new attractions start blank with a new id.
    public convenience init(store: AttractionStore, tracer: HopTracer = .disabled) {
        self.init(store: store, newElement: { Attraction(name: "") }, tracer: tracer)
    }
}
