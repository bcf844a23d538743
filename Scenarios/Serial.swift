import Companion
import ScenarioKit

let serialAgree = Scenario(
    "one candidate still goes through the chooser; nothing applied until USE THIS SERIAL",
    rules: ["SERIAL-1", "SERIAL-4", "SERIAL-5", "SERIAL-6", "SERIAL-8"], phone: Phone(camera: "dell-latitude-hold")
) {
    openPhotographSerial()
    wait(0.5)
    expectSerialPhase("reading")
    wait(1.0)
    expectChooser(["7XK2M93"])
    expectRowDetail(0, "printed line 2 and CODE-39 barcode: they agree")
    expectUseButton(nil)
    expectSerialUsed(nil)
    tapRow(0)
    expectUseButton("7XK2M93")
    tapUseThisSerial()
    expectSerialUsed("7XK2M93")
}

let serialDisagree = Scenario(
    "barcode and print disagree: both shown, neither buried", rules: ["SERIAL-2", "SERIAL-3", "SERIAL-5"],
    phone: Phone(camera: "disagree-digit-hold")
) {
    openPhotographSerial()
    wait(1.5)
    expectChooser(["CN0KX2M1742", "CN0KX2M1743"])
    expectRowDetail(0, "printed line 2: disagrees with CN0KX2M1743")
    expectRowDetail(1, "CODE-128 barcode: disagrees with CN0KX2M1742")
    tapRow(1)
    tapUseThisSerial()
    expectSerialUsed("CN0KX2M1743")
}

let serialScanAgainCancel = Scenario(
    "Scan again takes another look; Cancel re-arms the scanner", rules: ["SERIAL-7"], phone: Phone(camera: "hp-elitebook-hold")
) {
    openPhotographSerial()
    wait(1.5)
    expectChooser(["5CG1234XYZ"])
    tapScanAgain()
    expectSerialPhase("reading")
    tapCancel()
    expectSerialPhase("cancelled")
    expectSerialUsed(nil)
}

let serialNothingRead = Scenario(
    "nothing read at all goes straight through to typing it by hand", rules: ["SERIAL-8"], phone: Phone(camera: "desk-only")
) {
    openPhotographSerial()
    wait(4.0)
    expectSerialPhase("typing by hand")
}
