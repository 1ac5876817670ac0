"""Markdown/HTML reports with PNG plots of metric results."""
