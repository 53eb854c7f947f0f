// A shared library that defines no kokkosp_* entry point: loading it as a Kokkos tool must say so.
extern "C" int kdag_not_a_kokkos_tool() { return 42; }
