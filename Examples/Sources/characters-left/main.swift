import DemoFeatures
import TerminalUI

// A text field with an "N characters left" label. `characters-left --help` for the options.
DemoCommandLine(
    name: "characters-left",
    abstract: "A text field with an \"N characters left\" label (\(CharactersLeftScreen.limit) allowed).",
    keys: [
        "text                        typed into the field (pasted line breaks and tabs become spaces)",
        "Left/Right, Home/End        move the cursor (Ctrl-A / Ctrl-E too)",
        "Backspace, Delete, Ctrl-U   delete before, after, everything",
        "Esc or Ctrl-C               quit",
    ]
).main { CharactersLeftScreen(host: $0) }
