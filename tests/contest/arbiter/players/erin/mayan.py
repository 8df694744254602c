# Reads mayan.in, but prints the answer instead of writing mayan.out.
n = int(open("mayan.in").read().split()[0])
print({3: "2 0 1\n1 1 1\n3 4 -1", 2: "2 0 1\n0 0 1"}.get(n, "-1"))
