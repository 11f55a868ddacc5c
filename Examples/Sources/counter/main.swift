import DemoFeatures
import TerminalUI

// The counter demo: + / Up, - / Down, r, q / Esc. `counter --help` for the options.
DemoCommandLine(
    name: "counter",
    abstract: "A counter (Ripple's smallest view model): inputs → scan → a Driver.",
    keys: ["+ or Up      count up", "- or Down    count down", "r            reset", "q or Esc     quit"]
).main { CounterScreen(host: $0) }
