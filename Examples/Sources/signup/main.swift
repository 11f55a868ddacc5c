import DemoFeatures
import TerminalUI

// The sign-up form: e-mail and password checks enable the button. `signup --help` for the options.
DemoCommandLine(
    name: "signup",
    abstract: "The sign-up form: e-mail and password checks; the button is enabled only when both pass.",
    keys: [
        "Tab, Down / Shift-Tab, Up   next / previous: e-mail, password, button",
        "Enter                       next field; on the button, sign up",
        "text, Backspace, Delete     edit the focused field",
        "Esc or Ctrl-C               quit",
    ]
).main { SignUpScreen(host: $0) }
