import Ripple
import RippleCollections

/// The rows of a list on the terminal, kept in step with a stream of
/// ``ArrayChange``s: a row is rendered when it is inserted or updated, never
/// again while it only moves or stays.
///
/// ```swift
/// var list = ListView<Todo> { Line("• " + $0.title) }
/// todos.changes.subscribe(onNext: { list.apply($0); draw(list.rows) })
/// ```
///
/// Drawn through ``Renderer``, which rewrites only the lines that differ from the
/// previous frame, an update or an append rewrites one line of the terminal.
/// (Rows below an insert or a delete shift on screen, so the renderer rewrites
/// them; they are not rendered again.)
public struct ListView<Element> {
    /// The rendered rows, one per element, in order.
    public private(set) var rows: [Line] = []
    /// How many rows were rendered so far (for tests and diagnostics).
    public private(set) var renderedRowCount = 0
    private let render: (Element) -> Line

    /// A list that renders each element with `render`.
    public init(render: @escaping (Element) -> Line) {
        self.render = render
    }

    /// Applies `change`: an initial change renders every row; a later one
    /// renders only its inserted and updated rows.
    public mutating func apply(_ change: ArrayChange<Element>) {
        var rendered = 0
        let render = self.render
        change.apply(to: &rows) { element in
            rendered += 1
            return render(element)
        }
        renderedRowCount += rendered
    }
}

extension ObservableType {
    /// The rows of a ``ListView`` after each change of a change stream.
    public func listRows<T>(render: @escaping (T) -> Line) -> Observable<[Line]> where Element == ArrayChange<T> {
        scan(into: ListView(render: render)) { list, change in list.apply(change) }.map(\.rows)
    }
}
