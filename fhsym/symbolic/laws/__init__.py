"""The declarations of the noise laws fhsym ships (issue 28): one module per law, each with its ``DECLARATION``.

``python -m fhsym.codegen`` prints each into ``fhsym/_generated/declared/<law>.py`` (the list is
``fhsym.codegen.declared_laws.LAWS``); the hand-written law classes take their numerics from there.
"""
