# NOIP style in Python: reads mayan.in, writes mayan.out; wrong on n = 3.
n = int(open("mayan.in").read().split()[0])
with open("mayan.out", "w") as out:
    out.write("2 0 1\n1 1 1\n4 0 -1\n" if n == 3 else "-1\n")
