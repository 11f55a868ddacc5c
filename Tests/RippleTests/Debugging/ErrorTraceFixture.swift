import Ripple

// The upstream half of the chain in ErrorTraceTests, written in a file of its
// own: an error's trace names the sites of both files. The tests read the lines
// of these operators from `ErrorTraceFixture.lines`; keep them in step.
enum ErrorTraceFixture {
    static let lines = (named: 11, filter: 12, distinct: 13)

    static func requests(_ query: Observable<String>) -> Observable<String> {
        query
            .named("query")
            .filter { !$0.isEmpty }
            .distinctUntilChanged()
    }
}
