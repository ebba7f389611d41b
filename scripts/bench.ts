console.log("bench runner placeholder")
