// Size program "screens": 10 screens of an app, each with a model type of its own
// and the same two chains (search, and a combined selection). Written by
// scripts/generate-screens-program.py: edit that, not this file. The same source is
// built against Ripple and against RxSwift (ripple-compare --size).
#if canImport(Ripple)
import Ripple
#else
import RxSwift
#endif
import Foundation

struct Model0: Equatable {
    let id: Int
    let name: String
}

final class Screen0 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model0] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "0" }
            .filter { $0.count > 0 }
            .distinctUntilChanged()
            .debounce(.milliseconds(1), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model0(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model0(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model1: Equatable {
    let id: Int
    let name: String
}

final class Screen1 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model1] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "1" }
            .filter { $0.count > 1 }
            .distinctUntilChanged()
            .debounce(.milliseconds(2), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model1(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model1(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model2: Equatable {
    let id: Int
    let name: String
}

final class Screen2 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model2] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "2" }
            .filter { $0.count > 2 }
            .distinctUntilChanged()
            .debounce(.milliseconds(3), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model2(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model2(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model3: Equatable {
    let id: Int
    let name: String
}

final class Screen3 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model3] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "3" }
            .filter { $0.count > 3 }
            .distinctUntilChanged()
            .debounce(.milliseconds(4), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model3(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model3(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model4: Equatable {
    let id: Int
    let name: String
}

final class Screen4 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model4] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "4" }
            .filter { $0.count > 4 }
            .distinctUntilChanged()
            .debounce(.milliseconds(5), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model4(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model4(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model5: Equatable {
    let id: Int
    let name: String
}

final class Screen5 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model5] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "5" }
            .filter { $0.count > 0 }
            .distinctUntilChanged()
            .debounce(.milliseconds(6), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model5(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model5(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model6: Equatable {
    let id: Int
    let name: String
}

final class Screen6 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model6] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "6" }
            .filter { $0.count > 1 }
            .distinctUntilChanged()
            .debounce(.milliseconds(7), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model6(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model6(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model7: Equatable {
    let id: Int
    let name: String
}

final class Screen7 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model7] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "7" }
            .filter { $0.count > 2 }
            .distinctUntilChanged()
            .debounce(.milliseconds(8), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model7(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model7(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model8: Equatable {
    let id: Int
    let name: String
}

final class Screen8 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model8] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "8" }
            .filter { $0.count > 3 }
            .distinctUntilChanged()
            .debounce(.milliseconds(9), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model8(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model8(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

struct Model9: Equatable {
    let id: Int
    let name: String
}

final class Screen9 {
    let bag = DisposeBag()
    let query = BehaviorSubject<String>(value: "")
    let taps = PublishSubject<Int>()
    var shown: [Model9] = []

    init(scheduler: SchedulerType) {
        query.map { $0.lowercased() + "9" }
            .filter { $0.count > 4 }
            .distinctUntilChanged()
            .debounce(.milliseconds(10), scheduler: scheduler)
            .flatMapLatest { text in Observable.just([Model9(id: text.count, name: text)]).catchAndReturn([]) }
            .subscribe(onNext: { [weak self] in self?.shown = $0 })
            .disposed(by: bag)
        Observable.combineLatest(taps, query) { Model9(id: $0, name: $1) }
            .map { $0.name }
            .take(3)
            .subscribe(onNext: { print($0) })
            .disposed(by: bag)
    }
}

let scheduler = MainScheduler.instance
let screen0 = Screen0(scheduler: scheduler)
screen0.query.onNext("x")
let screen1 = Screen1(scheduler: scheduler)
screen1.query.onNext("x")
let screen2 = Screen2(scheduler: scheduler)
screen2.query.onNext("x")
let screen3 = Screen3(scheduler: scheduler)
screen3.query.onNext("x")
let screen4 = Screen4(scheduler: scheduler)
screen4.query.onNext("x")
let screen5 = Screen5(scheduler: scheduler)
screen5.query.onNext("x")
let screen6 = Screen6(scheduler: scheduler)
screen6.query.onNext("x")
let screen7 = Screen7(scheduler: scheduler)
screen7.query.onNext("x")
let screen8 = Screen8(scheduler: scheduler)
screen8.query.onNext("x")
let screen9 = Screen9(scheduler: scheduler)
screen9.query.onNext("x")
var shown = 0
shown += screen0.shown.count
shown += screen1.shown.count
shown += screen2.shown.count
shown += screen3.shown.count
shown += screen4.shown.count
shown += screen5.shown.count
shown += screen6.shown.count
shown += screen7.shown.count
shown += screen8.shown.count
shown += screen9.shown.count
print(shown)
