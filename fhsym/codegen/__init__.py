"""Code generation: SymPy stable forms -> checked-in numpy/scipy modules in fhsym/_generated."""
