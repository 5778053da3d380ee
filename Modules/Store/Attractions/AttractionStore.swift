public import MVCListStore
public import MVCModel

/// The store of the attractions sample: the generic list store, holding attractions.
///
/// Everything it does comes from ``/MVCListStore/ListStore``; what is particular to attractions
/// is declared by `Attraction` itself (the fields, the rules) and by the sample's storage
/// (`FileFormat.attractions`, the rows' `databaseKind`: `Samples/AttractionsStorage`).
public typealias AttractionStore = ListStore<Attraction>

/// What an ``AttractionStore`` publishes for each change.
public typealias AttractionStoreUpdate = ListStoreUpdate<Attraction>

/// One change to the list of attractions, with the values it is about.
public typealias AttractionListChange = ListChange<Attraction>

/// Why an ``AttractionStore`` refused an edit.
public typealias AttractionStoreError = ListStoreError<Attraction>
