import DemoFeatures
import Ripple
import RippleTest
import TerminalUI
import XCTest

final class SignUpViewModelTests: XCTestCase {
    func testButtonEnabledOnlyWhenBothChecksPass() throws {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let email = scheduler.createHotObservable([
                .next(200, ""), .next(210, "ann"), .next(230, "ann@example.com"), .next(250, "ann@example"),
            ])
            let password = scheduler.createHotObservable([.next(200, ""), .next(220, "12345"), .next(240, "123456")])
            let viewModel = SignUpViewModel(input: .init(
                email: email.asDriver(onErrorJustReturn: ""),
                password: password.asDriver(onErrorJustReturn: ""),
                signUp: Signal.never()
            ))
            let enabled = scheduler.start { viewModel.isSignUpEnabled }
            // Both fields have a value from 220 (the events at 200 happen before the
            // subscription); each change reaches the driver one tick later.
            XCTAssertEqual(enabled.events.map(\.value.element), [false, true, false])
            XCTAssertEqual(enabled.events.map(\.time), [221, 241, 251])
        }
    }

    func testMessages() {
        let email = BehaviorRelay(value: "")
        let password = BehaviorRelay(value: "")
        let viewModel = SignUpViewModel(input: .init(email: email.asDriver(), password: password.asDriver(), signUp: .never()))
        var emailMessages: [String] = []
        var passwordMessages: [String] = []
        let bag = DisposeBag()
        viewModel.emailMessage.drive(onNext: { emailMessages.append($0) }).disposed(by: bag)
        viewModel.passwordMessage.drive(onNext: { passwordMessages.append($0) }).disposed(by: bag)
        email.accept("bob")
        email.accept("bob@example.org")
        password.accept("abcde")
        password.accept("abcdef")
        XCTAssertEqual(emailMessages, ["Enter your e-mail address", "That is not a valid e-mail address", "E-mail address looks good"])
        XCTAssertEqual(passwordMessages, ["Password needs 6 more characters", "Password needs 1 more character", "Password is long enough"])
    }

    func testSignUpOnlyWhenEnabled() {
        let email = BehaviorRelay(value: "bad")
        let password = BehaviorRelay(value: "secret1")
        let taps = PublishRelay<Void>()
        let viewModel = SignUpViewModel(input: .init(email: email.asDriver(), password: password.asDriver(), signUp: taps.asSignal()))
        var signedUp: [String] = []
        let subscription = viewModel.signedUp.emit(onNext: { signedUp.append($0) })
        taps.accept(())
        email.accept("eve@example.net")
        taps.accept(())
        XCTAssertEqual(signedUp, ["eve@example.net"])
        subscription.dispose()
    }

    func testEmailSyntax() {
        for valid in ["a@b.co", "first.last+tag@sub.example.com"] {
            XCTAssertTrue(SignUpViewModel.isValidEmail(valid), valid)
        }
        for invalid in ["", "a", "a@b", "a@b.c", "a b@c.com", "@b.com", "a@@b.com"] {
            XCTAssertFalse(SignUpViewModel.isValidEmail(invalid), invalid)
        }
    }
}

final class SignUpScreenTests: XCTestCase {
    func testFillingTheFormEnablesTheButtonAndSignsUp() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 12, columns: 80))
        let binding = TerminalApp.bind(SignUpScreen(host: terminal), to: terminal) {}
        XCTAssertEqual(terminal.screen.lines[8], "  [ Sign up ] (disabled)")
        terminal.type("ann@example.com")
        XCTAssertEqual(terminal.screen.lines[2], "E-mail:   ann@example.com")
        XCTAssertEqual(terminal.screen.lines[3], "          E-mail address looks good")
        terminal.press(.tab)
        terminal.type("12345")
        XCTAssertEqual(terminal.screen.lines[5], "Password: •••••")
        XCTAssertEqual(terminal.screen.lines[6], "          Password needs 1 more character")
        terminal.type("6")
        XCTAssertEqual(terminal.screen.lines[6], "          Password is long enough")
        XCTAssertEqual(terminal.screen.lines[8], "  [ Sign up ]")
        terminal.press(.enter)
        XCTAssertEqual(terminal.screen.lines[8], "> [ Sign up ]")
        XCTAssertNil(terminal.screen.cursor)
        terminal.press(.enter)
        XCTAssertEqual(terminal.screen.lines[10], "Signed up as ann@example.com!")
        binding.dispose()
    }

    func testDisabledButtonDoesNothing() {
        let terminal = VirtualTerminal(size: TerminalSize(rows: 12, columns: 80))
        let binding = TerminalApp.bind(SignUpScreen(host: terminal), to: terminal) {}
        terminal.type("not-an-email")
        terminal.press(.tab, .tab, .enter)
        XCTAssertEqual(terminal.screen.lines[8], "> [ Sign up ] (disabled)")
        XCTAssertEqual(terminal.screen.lines[10], "")
        terminal.press(.backTab, .backTab)
        terminal.press(.backspace, .backspace)
        XCTAssertEqual(terminal.screen.lines[2], "E-mail:   not-an-ema")
        binding.dispose()
    }
}
