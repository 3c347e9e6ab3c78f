-- Job reads fetch the result assets of each job; without this every read scanned all assets.
CREATE INDEX assets_by_job ON assets (job_id);
