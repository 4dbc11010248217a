"""Helpers of tests/test_browser.py: the course in JupyterLab, in a real browser (Chromium, Playwright)."""
