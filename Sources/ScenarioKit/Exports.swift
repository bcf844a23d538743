// A scenario names a register seed (RegisterSeed) and reads the world's register: the DSL brings
// the register's types along, as it brings the companion's.
@_exported import Register
