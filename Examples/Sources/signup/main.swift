import DemoFeatures
import TerminalUI

// The sign-up form: e-mail and password checks enable the button.
TerminalApp.run { SignUpScreen(host: $0) }
