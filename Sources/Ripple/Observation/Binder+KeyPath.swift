extension Binder {
    /// A binder that writes each element to `target[keyPath: keyPath]` on
    /// `scheduler` (the main scheduler by default), holding `target` weakly.
    ///
    /// Made for `@Observable` models, whose observers (SwiftUI views,
    /// ``ObservableType/observing(on:_:)``) then see the change, but any class
    /// works.
    ///
    /// ```swift
    /// @Observable final class SearchModel { var results: [Repo] = [] }
    ///
    /// api.search(query).bind(to: Binder(model, keyPath: \.results)).disposed(by: bag)
    /// ```
    ///
    /// Once `target` is gone, elements are dropped. An error is reported to
    /// ``Hooks/contractViolationHandler``, as for every ``Binder``.
    public init<Target: AnyObject>(
        _ target: Target,
        keyPath: ReferenceWritableKeyPath<Target, Value>,
        scheduler: ImmediateSchedulerType = MainScheduler.instance
    ) {
        self.init(target, scheduler: scheduler) { target, value in
            target[keyPath: keyPath] = value
        }
    }
}

extension ObservableType {
    /// Writes every element to `object[keyPath: keyPath]` on the main scheduler,
    /// holding `object` weakly: `bind(to: Binder(object, keyPath: keyPath))`.
    ///
    /// ```swift
    /// viewModel.title.bind(to: model, \.title).disposed(by: bag)
    /// ```
    ///
    /// ```
    /// source:       --a--b--
    /// model.title:  --a--b--   (written on the main thread)
    /// ```
    ///
    /// The subscription does not keep `object` alive; once it is gone, elements are
    /// dropped. Disposing the subscription stops the writes.
    @_alwaysEmitIntoClient
    public func bind<Object: AnyObject>(to object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Element>) -> Disposable {
        bind(to: Binder(object, keyPath: keyPath))
    }

    /// Writes every element, wrapped in an optional, to an optional property of
    /// `object` on the main scheduler, holding `object` weakly.
    @_alwaysEmitIntoClient
    public func bind<Object: AnyObject>(to object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Element?>) -> Disposable {
        map { Optional($0) }.bind(to: Binder(object, keyPath: keyPath))
    }
}
