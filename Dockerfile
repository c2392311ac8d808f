# padbench container image (the Kubernetes Indexed Job recipe in docs/scale-out.md uses it).
# docker build -t padbench . ; docker run --rm -v /data:/data padbench bench --dataset /data/set --out /data/runs/x
FROM swift:6.1-bookworm
WORKDIR /opt/padbench
COPY . .
RUN apt-get update -qq && make setup && cp .build/release/padbench /usr/local/bin/padbench \
    && rm -rf .build/*/debug && apt-get clean && rm -rf /var/lib/apt/lists/*
ENTRYPOINT ["padbench"]
