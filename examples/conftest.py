"""Example suites: copy one into your project next to the code it tests."""
