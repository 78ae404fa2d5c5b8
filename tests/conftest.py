from __future__ import annotations

import contextlib
import importlib

# pytester's in-process runs drop every module first imported during the run. cryptography's
# Python modules then load afresh over its Rust extension, which keeps the first copy's classes,
# and moto's SNS signing later fails ("Algorithm must be a registered hash algorithm", "Padding
# must be an instance of AsymmetricPadding") in whichever test runs after such a run. Loaded
# here, before any run, they stay.
for _module in (
    "cryptography.x509",
    "cryptography.hazmat.primitives.hashes",
    "cryptography.hazmat.primitives.serialization",
    "cryptography.hazmat.primitives.asymmetric.padding",
    "cryptography.hazmat.primitives.asymmetric.rsa",
):
    with contextlib.suppress(ImportError):
        importlib.import_module(_module)

# The same drop leaves a package imported before a run holding the attributes its submodules
# set during it: once botocore itself is loaded (a test module's imports), a run that imports
# botocore.session leaves botocore.handlers on the package, and a later run's fresh
# botocore.session binds that stale copy, whose handlers lack the stubber a fresh moto adds to
# the new one: mock_aws then answers nothing (test_safe_by_default after test_contract_mode).
# Loaded here, every run shares one copy.
for _module in ("botocore.session", "botocore.handlers"):
    with contextlib.suppress(ImportError):
        importlib.import_module(_module)
