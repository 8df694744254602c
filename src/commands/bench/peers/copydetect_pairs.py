"""copydetect on the files of one language, with its defaults (noise 25,
guarantee 30); prints one line per pair: "<similarity>\t<a>\t<b>", the
similarity the larger of the two shares copydetect reports (as its report
ranks pairs). Run by `mayan-judge bench --only similar` as:
    python copydetect_pairs.py <extension> <folder>"""
import sys
from copydetect import CopyDetector

ext, folder = sys.argv[1], sys.argv[2]
detector = CopyDetector(test_dirs=[folder], extensions=[ext], display_t=0.0, autoopen=False, silent=True,
                        disable_filtering=False, force_language=None)
detector.run()
files = detector.test_files
matrix = detector.similarity_matrix
for i in range(len(files)):
    for j in range(i + 1, len(files)):
        s = max(float(matrix[i][j][0]), float(matrix[i][j][1]), float(matrix[j][i][0]), float(matrix[j][i][1]), 0.0)
        print(f"{s}\t{files[i]}\t{files[j]}")
