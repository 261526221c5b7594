module.exports=1
