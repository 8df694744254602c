print(-1)
