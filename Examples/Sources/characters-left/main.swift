import DemoFeatures
import TerminalUI

// A text field with an "N characters left" label.
TerminalApp.run { CharactersLeftScreen(host: $0) }
