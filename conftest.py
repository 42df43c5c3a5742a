"""Test-session settings, loaded before anything imports scipy."""

import os

# scikit-learn's check_array_api_input runs only when SCIPY_ARRAY_API is set; with it the
# check verifies that enabling array-API dispatch with NumPy input changes nothing.
os.environ.setdefault("SCIPY_ARRAY_API", "1")
