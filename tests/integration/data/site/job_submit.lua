-- The site's job_submit.lua: every job names a time limit.
function slurm_job_submit(job_desc, part_list, submit_uid)
	if job_desc.time_limit == slurm.NO_VAL and job_desc.partition == "long" then
		slurm.log_user("jobs in long must give --time")
		return slurm.ESLURM_INVALID_TIME_LIMIT
	end
	return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
	return slurm.SUCCESS
end
