"""Generated numeric kernels (do not edit; regenerate with `python -m fhsym.codegen`)."""
