import DemoFeatures
import TerminalUI

// The counter demo: + / Up, - / Down, r, q / Esc.
TerminalApp.run { CounterScreen(host: $0) }
