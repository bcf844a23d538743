// The scenario language's surface, the one place the rig re-exports: a scenario file imports
// ScenarioKit (and Companion) and names the register's seeds, the cameras' faults, the Mac's
// answers and the drivers' state it reads in `expect`. Every other file imports what it uses.
@_exported import Camera
@_exported import MacLink
@_exported import Model
@_exported import Register
@_exported import Shell
