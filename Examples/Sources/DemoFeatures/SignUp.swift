import Foundation
import Ripple
import TerminalUI

/// The sign-up form from the brief: the button is enabled only when the e-mail
/// address looks valid and the password has at least 6 characters; each check
/// produces a message.
public final class SignUpViewModel {
    public struct Input {
        public let email: Driver<String>
        public let password: Driver<String>
        public let signUp: Signal<Void>

        public init(email: Driver<String>, password: Driver<String>, signUp: Signal<Void>) {
            self.email = email
            self.password = password
            self.signUp = signUp
        }
    }

    /// The minimum password length.
    public static let minimumPasswordLength = 6

    public let emailMessage: Driver<String>
    public let passwordMessage: Driver<String>
    public let isSignUpEnabled: Driver<Bool>
    /// The e-mail address each time a valid form is submitted.
    public let signedUp: Signal<String>

    public init(input: Input) {
        let emailValid = input.email.map(SignUpViewModel.isValidEmail)
        let passwordValid = input.password.map { $0.count >= SignUpViewModel.minimumPasswordLength }
        emailMessage = input.email.map { email in
            if email.isEmpty { return "Enter your e-mail address" }
            return SignUpViewModel.isValidEmail(email) ? "E-mail address looks good" : "That is not a valid e-mail address"
        }
        passwordMessage = input.password.map { password in
            let missing = SignUpViewModel.minimumPasswordLength - password.count
            if missing <= 0 { return "Password is long enough" }
            return "Password needs \(missing) more character\(missing == 1 ? "" : "s")"
        }
        isSignUpEnabled = Driver.combineLatest(emailValid, passwordValid) { $0 && $1 }.distinctUntilChanged()
        signedUp = input.signUp
            .withLatestFrom(Driver.combineLatest(input.email, isSignUpEnabled))
            .filter { $0.1 }
            .map { $0.0 }
    }

    /// A syntax check: something@domain.tld, no spaces.
    public static func isValidEmail(_ text: String) -> Bool {
        text.range(of: #"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"#, options: .regularExpression) != nil
    }
}

/// The sign-up form on a terminal: Tab / Up / Down move between the e-mail field,
/// the password field and the button; Enter on the button signs up; Esc quits.
public final class SignUpScreen: TerminalScreen {
    enum Focus: Int, CaseIterable {
        case email, password, button
    }

    struct Form {
        var email = TextFieldState()
        var password = TextFieldState()
        var focus = Focus.email
    }

    public let frames: Driver<Frame>
    public let quit: Signal<Void>
    public let viewModel: SignUpViewModel

    public init(host: TerminalHost) {
        let keys = host.keySignal
        let form = keys
            .scan(Form()) { form, key in
                var form = form
                switch key {
                case .tab, .down:
                    form.focus = Focus(rawValue: (form.focus.rawValue + 1) % Focus.allCases.count)!
                case .backTab, .up:
                    form.focus = Focus(rawValue: (form.focus.rawValue + Focus.allCases.count - 1) % Focus.allCases.count)!
                case .enter where form.focus != .button:
                    form.focus = Focus(rawValue: form.focus.rawValue + 1)!
                default:
                    switch form.focus {
                    case .email: form.email.apply(key)
                    case .password: form.password.apply(key)
                    case .button: break
                    }
                }
                return form
            }
            .asDriver(onErrorDriveWith: .empty())
            .startWith(Form())
        let submit = keys.withLatestFrom(form) { key, form in (key, form.focus) }
            .filter { $0.0 == .enter && $0.1 == .button }
            .map { _ in () }
        viewModel = SignUpViewModel(input: .init(
            email: form.map(\.email.text).distinctUntilChanged(),
            password: form.map(\.password.text).distinctUntilChanged(),
            signUp: submit
        ))
        let status = viewModel.signedUp.map { "Signed up as \($0)!" }.asDriver(onErrorDriveWith: .empty()).startWith("")
        quit = host.quitKeys
        frames = Driver.combineLatest(
            form, viewModel.emailMessage, viewModel.passwordMessage, viewModel.isSignUpEnabled, status, host.sizeDriver
        ) { form, emailMessage, passwordMessage, enabled, status, size in
            SignUpScreen.frame(
                form: form, emailMessage: emailMessage, passwordMessage: passwordMessage, enabled: enabled, status: status,
                width: size.columns)
        }
    }

    static func frame(form: Form, emailMessage: String, passwordMessage: String, enabled: Bool, status: String, width: Int) -> Frame {
        let label = "E-mail:   "
        let focused = TextStyle(underline: true)
        let ok = TextStyle(foreground: .green)
        let problem = TextStyle(foreground: .yellow)
        let emailOK = SignUpViewModel.isValidEmail(form.email.text)
        let passwordOK = form.password.text.count >= SignUpViewModel.minimumPasswordLength
        let email = form.email.window(width: width - label.count)
        let password = TextFieldWindow(
            text: String(repeating: "•", count: form.password.text.count), cursor: form.password.cursor, width: width - label.count)
        let button = enabled ? "[ Sign up ]" : "[ Sign up ] (disabled)"
        var buttonStyle = TextStyle(bold: enabled, dim: !enabled)
        buttonStyle.inverse = form.focus == .button && enabled
        let cursor: (row: Int, column: Int)? = switch form.focus {
        case .email: (2, label.count + email.cursorColumn)
        case .password: (5, label.count + password.cursorColumn)
        case .button: nil
        }
        return Frame(
            lines: [
                Line("Create your account", style: TextStyle(bold: true)),
                "",
                Line([Span(label)] + email.spans(style: form.focus == .email ? focused : .plain)),
                Line("          " + emailMessage, style: emailOK ? ok : problem),
                "",
                Line([Span("Password: ")] + password.spans(style: form.focus == .password ? focused : .plain)),
                Line("          " + passwordMessage, style: passwordOK ? ok : problem),
                "",
                Line([Span(form.focus == .button ? "> " : "  "), Span(button, style: buttonStyle)]),
                "",
                Line(status, style: TextStyle(bold: true, foreground: .green)),
                Line("Tab / Up / Down: move   Enter: next / sign up   Esc: quit", style: TextStyle(dim: true)),
            ],
            cursor: cursor
        )
    }
}
