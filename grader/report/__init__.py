"""Reports, each derived from one ``SubmissionResult``: JUnit, Gradescope JSON, HTML, class CSV."""

from .escape import clean_text

__all__ = ["clean_text"]
