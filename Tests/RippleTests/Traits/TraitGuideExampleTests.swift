import Foundation
import Ripple
import RippleTest
import XCTest

// The examples of docs/Single.md, docs/Maybe.md and docs/Completable.md,
// compiled and run. `TraitGuideExampleTests.testGuidesShowTheseExamples` checks
// that every Swift block of those guides appears here, word for word.

// MARK: - Declarations shared by the guides

struct Profile: Equatable, Sendable {
    let id: Int
    let name: String
}

enum ProfileError: Error, Equatable {
    case notFound(id: Int)
    case emptyName
}

final class ProfileStore {
    private(set) var saved: [Profile] = []

    func save(_ profile: Profile) throws {
        guard !profile.name.isEmpty else { throw ProfileError.emptyName }
        saved.append(profile)
    }
}

// MARK: Single

func profile(id: Int, in profiles: [Int: Profile]) -> Single<Profile> {
    Single.create { observer in
        if let profile = profiles[id] {
            observer(.success(profile))
        } else {
            observer(.failure(ProfileError.notFound(id: id)))
        }
        return Disposables.create()
    }
}

func greeting(id: Int, in profiles: [Int: Profile]) async throws -> String {
    let found = try await profile(id: id, in: profiles).value
    return "Hello, \(found.name)"
}

// MARK: Maybe

func cachedProfile(id: Int, in cache: [Int: Profile]) -> Maybe<Profile> {
    Maybe.create { observer in
        if let profile = cache[id] {
            observer(.success(profile))
        } else {
            observer(.completed)
        }
        return Disposables.create()
    }
}

// MARK: Completable

func save(_ profile: Profile, to store: ProfileStore) -> Completable {
    Completable.create { observer in
        do {
            try store.save(profile)
            observer(.completed)
        } catch {
            observer(.error(error))
        }
        return Disposables.create()
    }
}

/// What the examples `print`, instead of the standard output.
private let printed = PrintedLines()

private func print(_ items: Any...) {
    printed.append(items.map { "\($0)" }.joined(separator: " "))
}

final class TraitGuideExampleTests: RippleTestCase {
    private let profiles = [1: Profile(id: 1, name: "Ann"), 2: Profile(id: 2, name: "Bo")]

    private func takePrinted() -> [String] {
        printed.take()
    }

    override func setUp() {
        super.setUp()
        _ = printed.take()
    }

    // MARK: Single

    func testSingleSubscribe() {
        let profiles = self.profiles
        let bag = DisposeBag()

        profile(id: 1, in: profiles)
            .subscribe(onSuccess: { print("Hello,", $0.name) },
                       onFailure: { print("No profile:", $0) })
            .disposed(by: bag)

        profile(id: 3, in: profiles)
            .subscribe(onSuccess: { print("Hello,", $0.name) },
                       onFailure: { print("No profile:", $0) })
            .disposed(by: bag)

        XCTAssertEqual(takePrinted(), ["Hello, Ann", "No profile: notFound(id: 3)"])
    }

    func testSingleComposition() throws {
        let profiles = self.profiles
        let scheduler = MainScheduler.instance

        let welcome: Single<String> = profile(id: 1, in: profiles)
            .map { "Hello, \($0.name)" }
            .timeout(.seconds(5), scheduler: scheduler)
            .catchAndReturn("Hello, guest")

        let both: Single<(Profile, Profile)> = Single.zip(profile(id: 1, in: profiles), profile(id: 2, in: profiles))

        let next: Single<Profile> = profile(id: 1, in: profiles)
            .flatMap { first in profile(id: first.id + 1, in: profiles) }

        XCTAssertEqual(try welcome.toBlocking(timeout: 2).single(), "Hello, Ann")
        let pair = try both.toBlocking(timeout: 2).single()
        XCTAssertEqual([pair.0.name, pair.1.name], ["Ann", "Bo"])
        XCTAssertEqual(try next.toBlocking(timeout: 2).single().name, "Bo")
    }

    func testSingleFromAnObservable() throws {
        let only = Observable.of(42).asSingle()            // succeeds with 42
        let none = Observable<Int>.empty().asSingle()      // fails with RxError.noElements
        let first = Observable.of(1, 2, 3).first()         // a Single<Int?>: succeeds with 1

        XCTAssertEqual(try only.toBlocking(timeout: 2).single(), 42)
        XCTAssertThrowsError(try none.toBlocking(timeout: 2).single()) { error in
            guard case RxError.noElements = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try first.toBlocking(timeout: 2).single(), 1)
    }

    func testSingleAsync() async throws {
        let profiles = self.profiles

        let text: Single<String> = Single.create { try await greeting(id: 2, in: profiles) }

        let value = try await text.value
        XCTAssertEqual(value, "Hello, Bo")
        do {
            _ = try await greeting(id: 9, in: profiles)
            XCTFail("no error")
        } catch ProfileError.notFound(let id) {
            XCTAssertEqual(id, 9)
        }
    }

    func testSingleInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let answer = Single<Int>.timer(.seconds(10), scheduler: scheduler).map { _ in 42 }
        let res = scheduler.start { answer.asObservable() }
        XCTAssertEqual(res.events, [.next(210, 42), .completed(210)])
    }

    // MARK: Maybe

    func testMaybeSubscribe() {
        let cache = [7: Profile(id: 7, name: "Cy")]
        let bag = DisposeBag()

        cachedProfile(id: 7, in: cache)
            .subscribe(onSuccess: { print("cached:", $0.name) },
                       onError: { print("failed:", $0) },
                       onCompleted: { print("not cached") })
            .disposed(by: bag)

        cachedProfile(id: 8, in: cache)
            .subscribe(onSuccess: { print("cached:", $0.name) },
                       onError: { print("failed:", $0) },
                       onCompleted: { print("not cached") })
            .disposed(by: bag)

        XCTAssertEqual(takePrinted(), ["cached: Cy", "not cached"])
    }

    func testMaybeFallbacks() throws {
        let profiles = self.profiles
        let cache = [7: Profile(id: 7, name: "Cy")]

        let fromCacheOrServer: Single<Profile> = cachedProfile(id: 1, in: cache)
            .ifEmpty(switchTo: profile(id: 1, in: profiles))

        let nameOrPlaceholder: Single<String> = cachedProfile(id: 1, in: cache)
            .map(\.name)
            .ifEmpty(default: "unknown")

        let longName: Maybe<Profile> = profile(id: 1, in: profiles)
            .filter { $0.name.count > 5 }              // a Single that filters is a Maybe

        XCTAssertEqual(try fromCacheOrServer.toBlocking(timeout: 2).single().name, "Ann")
        XCTAssertEqual(try nameOrPlaceholder.toBlocking(timeout: 2).single(), "unknown")
        XCTAssertEqual(try longName.asObservable().toBlocking(timeout: 2).toArray(), [])
    }

    func testMaybeFromAnObservableAndAsync() async throws {
        let lastSaved = Observable<Int>.empty().asMaybe()   // completes empty
        let value: Int? = try await lastSaved.value          // nil
        XCTAssertNil(value)

        let one = try await Observable.of(5).asMaybe().value
        XCTAssertEqual(one, 5)
    }

    // MARK: Completable

    func testCompletableSubscribe() {
        let store = ProfileStore()
        let bag = DisposeBag()

        save(Profile(id: 1, name: "Ann"), to: store)
            .subscribe(onCompleted: { print("saved") },
                       onError: { print("not saved:", $0) })
            .disposed(by: bag)

        save(Profile(id: 2, name: ""), to: store)
            .subscribe(onCompleted: { print("saved") },
                       onError: { print("not saved:", $0) })
            .disposed(by: bag)

        XCTAssertEqual(takePrinted(), ["saved", "not saved: emptyName"])
        XCTAssertEqual(store.saved.map(\.name), ["Ann"])
    }

    func testCompletableSequencing() throws {
        let store = ProfileStore()
        let ann = Profile(id: 1, name: "Ann")
        let bo = Profile(id: 2, name: "Bo")

        let saveBoth: Completable = save(ann, to: store)
            .andThen(save(bo, to: store))                 // one after the other

        let saveThenCount: Single<Int> = saveBoth
            .andThen(Single.deferred { .just(store.saved.count) })

        XCTAssertEqual(try saveThenCount.toBlocking(timeout: 2).single(), 2)

        let other = ProfileStore()
        let atOnce: Completable = Completable.zip(save(ann, to: other), save(bo, to: other))
        XCTAssertNil(try atOnce.asObservable().toBlocking(timeout: 2).first())
        XCTAssertEqual(Set(other.saved.map(\.name)), ["Ann", "Bo"])
    }

    func testCompletableFromAnObservableAndAsync() async throws {
        let store = ProfileStore()
        let uploads = Observable.of(1, 2, 3)

        let done: Completable = uploads.ignoreElements().asCompletable()

        try await done.value
        try await save(Profile(id: 3, name: "Cy"), to: store).value
        XCTAssertEqual(store.saved.map(\.id), [3])
    }

    // MARK: - The guides show these examples

    func testGuidesShowTheseExamples() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = Self.normalized(try String(contentsOf: tests, encoding: .utf8))
        var blocks = 0
        for guide in ["Single", "Maybe", "Completable"] {
            let text = try String(contentsOf: root.appendingPathComponent("docs/\(guide).md"), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                blocks += 1
                XCTAssertTrue(source.contains(Self.normalized(block)), "docs/\(guide).md shows code that this file does not compile:\n\(block)")
            }
        }
        XCTAssertGreaterThanOrEqual(blocks, 12)
    }

    /// The contents of the ```swift blocks of a Markdown text.
    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Lines without leading spaces, blank lines dropped.
    static func normalized(_ text: String) -> String {
        text.components(separatedBy: "\n")
            .map { $0.drop { $0 == " " } }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}
