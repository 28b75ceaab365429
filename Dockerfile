# railchat: the Discord bot in a slim image; the database lives on the /data volume.
FROM python:3.11-slim

# cairosvg needs the cairo library at run time; DejaVu gives the renderer its fonts; tzdata
# the time zones players choose for their quiet hours (zoneinfo reads them from the system).
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcairo2 fonts-dejavu-core tzdata \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    RAILCHAT_DB=/data/railchat.db

WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .

RUN useradd --create-home --uid 10001 railchat \
    && mkdir -p /data && chown railchat:railchat /data
USER railchat
VOLUME ["/data"]

CMD ["railchat", "run"]
