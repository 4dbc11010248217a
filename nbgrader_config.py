"""nbgrader settings of the course: solutions/ is the source, notebooks/ the student release."""

c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "foundations-of-ml"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"

# A cell that runs longer than this (seconds) is stopped and counts as failed.
c.ExecutePreprocessor.timeout = 60
c.ExecutePreprocessor.kernel_name = "mlcourse"

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
