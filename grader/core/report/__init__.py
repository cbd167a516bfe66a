"""Reports, each derived from the one result model (``grade.SubmissionResult``).

* ``junit.write_junit(results, path)`` -- JUnit XML for CI systems, one testsuite per submission
* ``gradescope.write_gradescope(result, path)`` -- Gradescope's results.json
* ``html.write_html(result, path)`` / ``html.render_html(result)`` -- the page a student reads
* ``csv_report.write_class_csv(results, path)`` -- one row per submission, for staff

All student text (what the code printed, messages quoting it, compiler output)
goes through ``escape.clean_text`` first.  No writer modifies the result.
"""

from .csv_report import write_class_csv
from .escape import clean_text
from .gradescope import write_gradescope
from .html import render_html, write_html
from .junit import write_junit

__all__ = ["clean_text", "render_html", "write_class_csv", "write_gradescope", "write_html", "write_junit"]
