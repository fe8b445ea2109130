"""Suspense: its rules (`rules`) and its AI (`ai`), paired by the registry in `engines`."""
