import Model
import Testing

@testable import Companion

@Suite("Add it by hand, and rack sweeps")
struct IntakeTests {
    @Test("Add it by hand saves only when the person taps SAVE, with a tag and a name")
    func handIntake() {
        var form = HandIntake()
        #expect(!form.canSave && form.handle(.save).isEmpty)
        _ = form.handle(.type(.tag, " MF-0200 "))
        _ = form.handle(.type(.name, "Spare monitor"))
        _ = form.handle(.type(.serial, "CN0KX2M1742"))
        #expect(form.canSave)
        #expect(form.handle(.save) == [.addAsset(Asset(tag: "MF-0200", name: "Spare monitor", serial: "CN0KX2M1742", synced: false))])
        #expect(form.handle(.save).isEmpty)  // one save at a time
        _ = form.handle(.refused("an asset with the tag MF-0200 is already in the register"))
        #expect(form.problem == "an asset with the tag MF-0200 is already in the register" && form.canSave)
        _ = form.handle(.save)
        #expect(form.handle(.saved) == [.close] && form.closed)
    }

    @Test("a sweep uses its own camera set-up and offers Add it by hand by the same rule")
    func sweepSetup() {
        var sweep = RackSweep(context: context)
        #expect(sweep.handle(.opened) == [.startCamera(.sweep)])
        #expect(CameraSetup.sweep.torch && CameraSetup.sweep.framesPerSecond < CameraSetup.label.framesPerSecond)
        _ = sweep.handle(.cameraStarted)
        #expect(sweep.sentence == RackSweep.readySentence && sweep.routes == [.photographSerial, .addByHand])
        for trouble in CameraTrouble.allCases {
            var broken = RackSweep(context: context)
            _ = broken.handle(.opened)
            _ = broken.handle(.cameraFailed(trouble))
            #expect(broken.sentence == sentences[trouble.kind] && broken.routes == [.addByHand])
        }
    }
}
